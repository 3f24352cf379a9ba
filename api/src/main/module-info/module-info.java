/**
 * The types an embedder codes against: the engine's interface, its configuration, a request, a job and the
 * tier2 client it dials. JDK only.
 */
module dev.orderly.api {
    exports dev.orderly.api;
}
