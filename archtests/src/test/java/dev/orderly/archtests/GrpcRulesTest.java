package dev.orderly.archtests;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.orderly.grpc.GrpcTier2Client;
import dev.orderly.archtests.grpcviolations.EngineClassThatSeesGrpc;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link GrpcRules} on the production classes, and on a deliberately bad class to show the rule can fail. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class GrpcRulesTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.orderly.api", "dev.orderly.engine", "dev.orderly.grpc");

    @Test
    void theGrpcModuleIsImported() {
        assertTrue(PRODUCTION.contain(GrpcTier2Client.class));
    }

    @Test
    void apiAndEngineNeverSeeGrpc() {
        GrpcRules.noGrpcIn("dev.orderly.api..", "dev.orderly.engine..").check(PRODUCTION);
    }

    @Test
    void grpcSeesOnlyTheApi() {
        GrpcRules.grpcSeesOnlyTheApi("dev.orderly.grpc..").check(PRODUCTION);
    }

    @Test
    void theRuleCatchesAClassThatSeesGrpc() {
        JavaClasses bad = new ClassFileImporter().importClasses(EngineClassThatSeesGrpc.class);
        assertThrows(AssertionError.class,
                () -> GrpcRules.noGrpcIn("dev.orderly.archtests.grpcviolations..").check(bad));
    }
}
