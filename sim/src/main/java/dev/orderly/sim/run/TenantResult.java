package dev.orderly.sim.run;

import dev.orderly.api.RequestResult;
import java.util.Optional;

/**
 * How one tenant's request ended in one run.
 *
 * @param record what the metrics collector saw
 * @param result the engine's result, when the request completed
 * @param failure why the request failed, when it did
 */
public record TenantResult(TenantRecord record, Optional<RequestResult> result, Optional<String> failure) {
}
