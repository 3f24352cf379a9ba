package dev.orderly.archtests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;

/**
 * The boundaries around the gRPC transport: the engine knows nothing of the transport, and the transport
 * sees only the api.
 */
final class GrpcRules {

    private GrpcRules() {
    }

    /**
     * The api and the engine know nothing of gRPC or protobuf: the transport is one {@code Tier2Client} among others,
     * and an embedder who does not use it does not carry it.
     */
    static ArchRule noGrpcIn(String... packages) {
        return noClasses().that().resideInAnyPackage(packages)
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "com.google.protobuf..",
                        "dev.orderly.grpc..")
                .as("api and engine classes should not depend on io.grpc, protobuf or dev.orderly.grpc")
                .because("the transport plugs into the engine through Tier2Client; the engine stays"
                        + " transport-free");
    }

    /**
     * The gRPC module's main code uses the api only, as a transport written by anyone else would: it is one
     * {@code Tier2Client} and one tier2 server, and an embedder picks the engine it runs them with. The engine is a
     * test-scope dependency of the module (its tests run real requests); the simulator sits above it.
     */
    static ArchRule grpcSeesOnlyTheApi(String grpcTree) {
        return noClasses().that().resideInAPackage(grpcTree)
                .should().dependOnClassesThat().resideInAnyPackage("dev.orderly.engine..", "dev.orderly.sim..")
                .as("grpc classes should depend on the api only")
                .because("the transport plugs into any engine through Tier2Client; the layers stay one-way");
    }
}
