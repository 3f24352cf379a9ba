package dev.orderly.engine.internal;

import org.slf4j.MDC;
import org.slf4j.helpers.NOPMDCAdapter;

/**
 * Whether the request's threads put their MDC keys ({@code request}, {@code segment}, {@code stage}): only when the
 * SLF4J binding keeps an MDC. With none bound, or the no-operation binding, an MDC put does nothing, and formatting
 * each job's segment and stage for it was a few per cent of an instant job's CPU. Decided once, when the engine's
 * first request runs: SLF4J binds once per JVM.
 */
final class LogContext {

    /** True unless the bound MDC adapter is SLF4J's no-operation one. */
    static final boolean KEPT = !(MDC.getMDCAdapter() instanceof NOPMDCAdapter);

    private LogContext() {
    }
}
