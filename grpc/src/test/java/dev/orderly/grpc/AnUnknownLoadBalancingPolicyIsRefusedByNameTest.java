package dev.orderly.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression: a mistyped policy ({@code "round_robbin"}) was taken by the setter, and {@code build()} threw gRPC's own
 * {@code IllegalStateException: Default config is invalid: ... None of [round_robbin] specified by Service Config are
 * available}, which names the value but not the setting. It is now refused where it is given, naming both.
 */
@Timeout(10)
class AnUnknownLoadBalancingPolicyIsRefusedByNameTest {

    @Test
    void aPolicyGrpcDoesNotKnowIsRefusedAtTheSetterNamingItAndTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GrpcTier2Client.builder().loadBalancingPolicy("round_robbin"));
        assertEquals("loadBalancingPolicy must be a policy gRPC knows (round_robin, pick_first, ...),"
                + " was 'round_robbin'", e.getMessage());
    }

    @Test
    void theKnownPoliciesStillBuild() {
        for (String policy : new String[] {"round_robin", "pick_first"}) {
            GrpcTier2Client client = GrpcTier2Client.builder().target("127.0.0.1:1").loadBalancingPolicy(policy)
                    .healthChecking(policy.equals("round_robin")).admissionTimeout(Duration.ofSeconds(1)).build();
            client.close();
        }
    }
}
