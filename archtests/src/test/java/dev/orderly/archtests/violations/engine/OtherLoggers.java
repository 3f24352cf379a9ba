package dev.orderly.archtests.violations.engine;

import java.util.logging.Logger;

/** Bad: logging through something other than SLF4J. */
public final class OtherLoggers {

    public static final class JavaUtilLogging {
        private static final Logger LOG = Logger.getLogger(JavaUtilLogging.class.getName());

        public void report(long segment) {
            LOG.info("delivered " + segment);
        }
    }

    public static final class SystemLogger {
        public void report(long segment) {
            System.getLogger("orderly").log(System.Logger.Level.INFO, "delivered " + segment);
        }
    }
}
