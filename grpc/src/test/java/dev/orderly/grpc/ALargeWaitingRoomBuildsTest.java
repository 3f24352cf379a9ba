package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The builder takes any room of {@code >= 1} seats and any {@code maxConcurrentJobs >= 1}; the default cap of calls
 * per connection ({@code 4 × maxConcurrentJobs + 16 + capacity}) was summed in an {@code int}, so a room of
 * {@code Integer.MAX_VALUE} seats (a room "without bound") or half a billion slots overflowed to a negative cap and
 * {@code build()} threw gRPC's own "max must be positive: -2147483629", naming no setting. The cap saturates instead.
 */
@Timeout(30)
class ALargeWaitingRoomBuildsTest {

    @ParameterizedTest(name = "{0} slots, a room of {1}")
    @CsvSource({"1, 2147483647", "4, 2147483000", "600000000, 1", "2147483647, 2147483647"})
    void aServerWithTheseSettingsBuildsAndServes(int slots, int seats) throws Exception {
        try (Tier2Server s = Tier2Server.builder().maxConcurrentJobs(slots)
                .waitingRoom(seats, Duration.ofSeconds(5)).worker((job, work) -> { })
                .drainGrace(Duration.ZERO).build().start()) {
            assertEquals(0, s.callsWaiting());
        }
    }

    @Test
    void aServerWithManySlotsAndNoRoomBuilds() throws Exception {
        try (Tier2Server s = Tier2Server.builder().maxConcurrentJobs(Integer.MAX_VALUE).worker((job, work) -> { })
                .drainGrace(Duration.ZERO).build().start()) {
            assertEquals(0, s.jobsHeld());
        }
    }
}
