package dev.orderly.sim.cli;

import dev.orderly.sim.fleet.Admission;
import dev.orderly.tier2.ParameterMessages;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options of the fleet's waiting room: whether a full instance holds dials that ask to wait
 * ({@code --admission}), for how long ({@code --admission-wait}), how many seats it has ({@code --room}), and at how
 * many instances one dial waits at once ({@code --wait-at}). {@link #toAdmission} checks every value and names the
 * option of the first bad one.
 *
 * <p>The defaults are the variant that measured best in the default scenario (docs/results/waiting-room.md): a dial
 * waits at 4 instances at once (waiting at one leaves slots idle at the others), 5 s, in rooms of 16 seats (the
 * launch windows of four tenants, each dial holding a seat at 4 instances).
 */
final class AdmissionOptions {

    /** How a full instance answers a dial that asks to wait. */
    enum Mode {
        REFUSE, WAIT;

        /** Reads a value in any case; an unknown one is refused as every choice is. */
        static final class Converter extends Choices.Converter<Mode> {
            Converter() {
                super(Mode.class, "an admission");
            }
        }
    }

    @Option(names = "--admission", paramLabel = "refuse|wait", defaultValue = "wait",
            converter = Mode.Converter.class,
            description = "What a full instance does with a dial that asks to wait: wait (hold it in the instance's"
                    + " waiting room and hand it the next free slot) or refuse (at once, like the original tier2;"
                    + " the 'ordered + waiting room' run is then left out) (default: ${DEFAULT-VALUE}).")
    private Mode mode;

    @Option(names = "--admission-wait", paramLabel = "DURATION", defaultValue = "5s",
            converter = DurationConverter.class,
            description = "How long a dial of the waiting-room run waits for a slot before it is refused, > 0"
                    + " (default: ${DEFAULT-VALUE}).")
    private Duration maxWait;

    @Option(names = "--room", paramLabel = "N", defaultValue = "16",
            description = "Seats in each instance's waiting room, 1..10000; a better-ranked dial takes the seat of the"
                    + " worst waiter of a full room (default: ${DEFAULT-VALUE}).")
    private int room;

    @Option(names = "--wait-at", paramLabel = "N", defaultValue = "4",
            description = "Instances one dial waits at at once; the first to admit it wins, the others forget it,"
                    + " 1..10000 (default: ${DEFAULT-VALUE}).")
    private int waitAt;

    /**
     * The waiting room these options describe.
     *
     * @throws ParameterException naming the option and its value when a value is out of range, or when a room's
     *     option is given with {@code --admission=refuse}, which has no room
     */
    Admission toAdmission(CommandLine cl) {
        if (!maxWait.isPositive()) {
            throw new ParameterException(cl, "--admission-wait must be > 0, was " + DurationConverter.format(maxWait));
        }
        if (room < 1 || room > 10_000) {
            throw new ParameterException(cl, "--room must be between 1 and 10000, was " + room);
        }
        if (waitAt < 1 || waitAt > 10_000) {
            throw new ParameterException(cl, "--wait-at must be between 1 and 10000, was " + waitAt);
        }
        if (mode == Mode.REFUSE) {
            // Without a room these would be dropped without a word, as a tier2 launcher refuses --admission-wait
            // with no --room.
            refuseRoomOptions(cl, "--admission=refuse leaves out");
            return Admission.REFUSE;
        }
        return Admission.waiting(maxWait, room, waitAt);
    }

    /**
     * Refuses {@code --room}, {@code --admission-wait} and {@code --wait-at} when given: no run that is made has a
     * waiting room, because {@code why} (as in "which {@code why}").
     */
    void refuseRoomOptions(CommandLine cl, String why) {
        for (String option : new String[] {"--room", "--admission-wait", "--wait-at"}) {
            if (cl.getParseResult().hasMatchedOption(option)) {
                throw new ParameterException(cl, option + "=" + ParameterMessages.given(cl, option, "")
                        + " is for the waiting room, which " + why + ": drop one of them");
            }
        }
    }
}
