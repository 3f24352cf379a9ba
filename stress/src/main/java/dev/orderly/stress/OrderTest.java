package dev.orderly.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.orderly.api.JobKey;
import dev.orderly.engine.LaunchQueue;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Launch order between two racing joins.
 *
 * <p>The head H (segment 0) was refused and may not dial for an hour: it holds its place. With a window of 3, two
 * jobs join behind it at the same time through {@code awaitTurn}, L (segment 1) and U (segment 2), and both get
 * their turn at once (in the window, slots free). Whatever order they joined in, the snapshot must list H, L, U. The arbiter records the positions of H, L and U and the dialing count.
 */
@JCStressTest
@Description("Two jobs join concurrently behind a refused head; snapshot() always lists the lower key first, "
        + "behind the head, and both hold a dial slot.")
@Outcome(id = "0, 1, 2, 2", expect = ACCEPTABLE, desc = "Launch order H, L, U; L and U dialing.")
@Outcome(id = "0, 2, 1, 2", expect = FORBIDDEN, desc = "The higher key sorted in front of the lower one.")
@Outcome(expect = FORBIDDEN, desc = "Anything else: a key missing (-1), the head displaced, or a wrong dialing count.")
@State
public class OrderTest {

    private static final JobKey H = Queues.key(0);
    private static final JobKey L = Queues.key(1);
    private static final JobKey U = Queues.key(2);

    private final LaunchQueue queue = Queues.windowOf(3, Queues.FOREVER);
    private int lowOutcome;
    private int highOutcome;

    public OrderTest() {
        queue.refused(H);
    }

    @Actor
    public void high() {
        highOutcome = Waiter.start(queue, U).await();
    }

    @Actor
    public void low() {
        lowOutcome = Waiter.start(queue, L).await();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        List<JobKey> snapshot = queue.snapshot();
        boolean bothPassed = lowOutcome == Waiter.PASSED && highOutcome == Waiter.PASSED;
        r.r1 = snapshot.indexOf(H);
        r.r2 = snapshot.indexOf(L);
        r.r3 = snapshot.indexOf(U);
        r.r4 = bothPassed ? queue.stats().dialing() : -1;
    }
}
