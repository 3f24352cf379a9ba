package dev.orderly.engine.internal;

import dev.orderly.api.EngineConfig;
import dev.orderly.api.JobKey;
import dev.orderly.engine.DialGate;
import java.util.function.Consumer;

/**
 * The engine's {@link DelayGate}, with a hook run just before and one just after the first {@code awaitTurn}: a race
 * around a job's first turn (a withdrawal, a cover) made certain, on the job's own thread. Every other call goes to the
 * delay gate as it is. Used by one job on one thread, so it needs no lock.
 */
final class FirstTurnHookedDelayGate implements DialGate {

    private final DelayGate delays;
    private final Consumer<JobKey> beforeTheWait;
    private final Consumer<JobKey> afterTheWait;
    private boolean first = true;

    FirstTurnHookedDelayGate(EngineConfig config, Consumer<JobKey> beforeTheWait, Consumer<JobKey> afterTheWait) {
        this.delays = new DelayGate(config);
        this.beforeTheWait = beforeTheWait;
        this.afterTheWait = afterTheWait;
    }

    @Override
    public void awaitTurn(JobKey key) throws InterruptedException {
        boolean now = first;
        first = false;
        if (now) {
            beforeTheWait.accept(key);
        }
        delays.awaitTurn(key);
        if (now) {
            afterTheWait.accept(key);
        }
    }

    @Override
    public void refused(JobKey key) {
        delays.refused(key);
    }

    @Override
    public void failed(JobKey key) {
        delays.failed(key);
    }

    @Override
    public void leave(JobKey key) {
        delays.leave(key);
    }

    @Override
    public void leaveWithoutDialing(JobKey key) {
        delays.leaveWithoutDialing(key);
    }

    @Override
    public void slotFreed() {
        delays.slotFreed();
    }
}
