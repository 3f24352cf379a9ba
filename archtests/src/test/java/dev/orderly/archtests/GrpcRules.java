package dev.orderly.archtests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;

/**
 * The boundaries around the gRPC transport: the transport depends on the engine, never the other way round, and it
 * sees only what an embedder sees.
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
     * The gRPC module uses the engine's public package and the api only, like any embedder: never the engine's
     * internals, and never the simulator (which sits above it).
     */
    static ArchRule grpcUsesOnlyThePublicEngine(String grpcTree) {
        return noClasses().that().resideInAPackage(grpcTree)
                .should().dependOnClassesThat().resideInAnyPackage("dev.orderly.engine.internal..",
                        "dev.orderly.sim..")
                .as("grpc classes should depend on the api and dev.orderly.engine only")
                .because("the transport is an embedder of the engine; the layers stay one-way");
    }
}
