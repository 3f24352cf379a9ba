package dev.orderly.tier2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Tier2Main --worker=no.Such} said {@code no such class on the class path
 * (java.lang.ClassNotFoundException: no.Such)}: the exception's class name and the class again. It now says
 * {@code --worker=no.Such: no such class on the class path}, which is all there is to know.
 */
@Timeout(30)
class AnUnknownWorkerClassNamesNoJavaExceptionTest {

    @Test
    void anUnknownWorkerClassIsOneLineWithoutTheExceptionsName() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Tier2Main.execute(new String[] {"--outputs=target/tier2-main-test", "--worker=no.Such"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertEquals("tier2: --worker=no.Such: no such class on the class path (see --help)", err.toString().strip());
    }
}
