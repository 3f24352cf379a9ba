package dev.orderly.tier2;

import dev.orderly.api.Tier2Exception;
import dev.orderly.engine.FileOutputStore;
import dev.orderly.grpc.JobOutputs;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where a tier2 process writes its jobs' outputs ({@code --outputs}): request {@code R}'s outputs go to a store of
 * their own under the root, {@code DIR/R/} on a file system both sides reach. The request id names that place, so it
 * must be 1..100 of {@code [A-Za-z0-9._-]} (and not {@code .} or {@code ..}); another is FATAL for the job.
 */
final class OutputLocation {

    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");

    private OutputLocation() {
    }

    /** The outputs under directory {@code root}: request {@code R} in {@code root/R/}, a {@link FileOutputStore}. */
    static JobOutputs directory(Path root) {
        return (requestId, segment, output) -> new FileOutputStore(root.resolve(checked(requestId)))
                .write(segment, output);
    }

    /**
     * @return {@code requestId}, if it can name a directory or a key prefix
     * @throws Tier2Exception FATAL if not: no retry can fix it
     */
    static String checked(String requestId) throws Tier2Exception {
        if (!SAFE_ID.matcher(requestId).matches() || requestId.equals(".") || requestId.equals("..")) {
            throw Tier2Exception.fatal("request id must be 1..100 of [A-Za-z0-9._-] to name where its outputs go,"
                    + " was '" + requestId + "'", null);
        }
        return requestId;
    }
}
