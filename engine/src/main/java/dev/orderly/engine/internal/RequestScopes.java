package dev.orderly.engine.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses, once per JVM, which {@link RequestScope} every request of every engine uses.
 *
 * <p>System property {@value #PROPERTY}:
 * <ul>
 *   <li>{@code auto} (the default, also when unset): {@link StructuredRequestScope} when this JVM can load it (JDK 25
 *       with {@code --enable-preview}), else {@link ThreadsRequestScope};
 *   <li>{@code structured}: {@link StructuredRequestScope}, and creating an engine fails with an
 *       {@link IllegalStateException} saying why when this JVM can not load it;
 *   <li>{@code threads}: {@link ThreadsRequestScope}, whatever the JVM.
 * </ul>
 * Any other value makes creating an engine fail with an {@link IllegalArgumentException} naming the property and the
 * value. The choice is logged once at DEBUG.
 *
 * <p>{@link StructuredRequestScope} is compiled for release 25 with preview features, so it is never named in code:
 * it is loaded reflectively, and the JVM's refusal ({@link UnsupportedClassVersionError}, a {@link LinkageError}) is
 * the answer "not usable here".
 */
final class RequestScopes {

    /** The system property that forces a scope: {@code auto}, {@code structured} or {@code threads}. */
    static final String PROPERTY = "orderly.scope";

    static final String STRUCTURED = "structured";
    static final String THREADS = "threads";

    private static final String STRUCTURED_CLASS = RequestScopes.class.getPackageName() + ".StructuredRequestScope";
    private static final Logger LOG = LoggerFactory.getLogger(RequestScopes.class);

    private RequestScopes() {
    }

    /**
     * The scope chosen for this JVM.
     *
     * @throws IllegalArgumentException if {@value #PROPERTY} has a value this class does not know
     * @throws IllegalStateException if {@value #PROPERTY} is {@code structured} and this JVM can not load that scope
     */
    static Choice chosen() {
        Choice choice = Once.CHOICE;
        if (choice.factory() == null) {
            throw choice.problem();
        }
        return choice;
    }

    /**
     * The scope one {@code property} value gets; {@code structured} is asked only when the value lets it be used.
     * Never throws: an unusable value comes back as a choice with no factory and the problem to throw.
     */
    static Choice choose(String property, Supplier<Loaded> structured) {
        String value = property == null ? "auto" : property.trim().toLowerCase(Locale.ROOT);
        switch (value) {
            case THREADS -> {
                return new Choice(THREADS, ThreadsRequestScope::new, "forced by -D" + PROPERTY + "=" + THREADS, null);
            }
            case STRUCTURED -> {
                Loaded loaded = structured.get();
                if (loaded.factory() == null) {
                    return new Choice(STRUCTURED, null, null, new IllegalStateException("-D" + PROPERTY + "="
                            + STRUCTURED + " asks for the StructuredTaskScope request scope, which this JVM can not"
                            + " load (it needs JDK 25 with --enable-preview): " + loaded.whyNot()));
                }
                return new Choice(STRUCTURED, loaded.factory(), "forced by -D" + PROPERTY + "=" + STRUCTURED, null);
            }
            case "auto" -> {
                Loaded loaded = structured.get();
                if (loaded.factory() != null) {
                    return new Choice(STRUCTURED, loaded.factory(), "StructuredTaskScope loads on this JVM", null);
                }
                return new Choice(THREADS, ThreadsRequestScope::new,
                        "StructuredTaskScope does not load on this JVM: " + loaded.whyNot(), null);
            }
            default -> {
                return new Choice(value, null, null, new IllegalArgumentException("system property " + PROPERTY
                        + " must be auto, " + STRUCTURED + " or " + THREADS + ", was '" + property + "'"));
            }
        }
    }

    /** Loads {@link StructuredRequestScope} if this JVM can, else says why not. */
    static Loaded loadStructured() {
        return load(STRUCTURED_CLASS);
    }

    /** Loads the request scope class {@code className} if this JVM can, else says why not. */
    static Loaded load(String className) {
        try {
            Class<?> type = Class.forName(className, true, RequestScopes.class.getClassLoader());
            MethodHandle constructor = MethodHandles.lookup().findConstructor(type,
                    MethodType.methodType(void.class, String.class, Scheduler.class, Consumer.class));
            return new Loaded((id, scheduler, observer) -> {
                try {
                    return (RequestScope) constructor.invoke(id, scheduler, observer);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable e) {
                    throw new IllegalStateException("could not open a StructuredTaskScope request scope", e);
                }
            }, null);
        } catch (LinkageError | ReflectiveOperationException e) {
            return new Loaded(null, e.toString());
        }
    }

    /**
     * A chosen scope: its {@code name} ({@value #STRUCTURED} or {@value #THREADS}), the factory and why it was
     * chosen; or, when the property asks for something unusable, no factory and the {@code problem} to throw.
     */
    record Choice(String name, RequestScope.Factory factory, String why, RuntimeException problem) {
    }

    /** {@link StructuredRequestScope}'s factory, or, when it does not load, why not. */
    record Loaded(RequestScope.Factory factory, String whyNot) {
    }

    /** Makes the choice on first use, once per JVM (the holder idiom: class initialization is the lock). */
    private static final class Once {
        static final Choice CHOICE = logged(choose(System.getProperty(PROPERTY), RequestScopes::loadStructured));
    }

    /** Logs a usable {@code choice} at DEBUG (an unusable one is thrown at every engine instead) and returns it. */
    static Choice logged(Choice choice) {
        if (choice.factory() != null) {
            LOG.debug("request scope: {} ({})", choice.name(), choice.why());
        }
        return choice;
    }
}
