package dev.orderly.archtests.violations.engine;

import com.google.errorprone.annotations.CheckReturnValue;

/** Bad: the engine may carry Error Prone's {@code @GuardedBy} (compile time only), not its other annotations. */
public final class EngineThatUsesOtherErrorProneAnnotations {

    @CheckReturnValue
    public int value() {
        return 1;
    }
}
