package dev.orderly.tier2;

import dev.orderly.grpc.JobWorker;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * Finds the worker a tier2 process runs: the class named by {@code --worker=CLASS}, else the one registered with
 * {@link ServiceLoader} on the class path, as a {@link JobWorker} or as a {@link JobWorkerProvider}. Exactly one must
 * be registered; none or several is an {@link IllegalArgumentException} whose one-line message says what was found
 * and what to do.
 */
final class WorkerLoader {

    private WorkerLoader() {
    }

    /**
     * @param className the class named by {@code --worker}, or null to look for a registered one
     * @param options the options for a {@link JobWorkerProvider}; a plain worker takes none
     * @param loader where to look
     * @throws IllegalArgumentException if there is no worker, more than one, or an option is bad
     * @throws Exception if the provider could not make the worker
     */
    static JobWorker load(String className, List<String> options, ClassLoader loader) throws Exception {
        Candidate chosen = className != null ? named(className, loader) : registered(loader);
        return chosen.make(options);
    }

    private static Candidate named(String className, ClassLoader loader) {
        Class<?> type;
        try {
            type = Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            // The exception says the class's name again, behind its own: "no such class" is all there is to say.
            throw new IllegalArgumentException("--worker=" + className + ": no such class on the class path");
        } catch (ExceptionInInitializerError e) {
            throw failedToInitialize(className, e);
        } catch (LinkageError e) {
            // Asked again, a class whose initializer threw is a NoClassDefFoundError caused by the first failure.
            if (e.getCause() instanceof ExceptionInInitializerError first) {
                throw failedToInitialize(className, first);
            }
            throw new IllegalArgumentException("--worker=" + className + " can not be loaded (" + e + ")");
        }
        if (!JobWorker.class.isAssignableFrom(type) && !JobWorkerProvider.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("--worker=" + className + " is neither a " + JobWorker.class.getName()
                    + " nor a " + JobWorkerProvider.class.getName());
        }
        return new Candidate(type, () -> instantiate(type, "--worker=" + className));
    }

    /** The class is there, so "no such class" would send one looking for a jar: what its initializer threw is why. */
    private static IllegalArgumentException failedToInitialize(String className, ExceptionInInitializerError e) {
        return new IllegalArgumentException(failedToInitializeMessage("--worker=" + className, e));
    }

    private static String failedToInitializeMessage(String what, ExceptionInInitializerError e) {
        return what + " failed to initialize: " + (e.getCause() != null ? e.getCause() : e.getMessage());
    }

    private static Candidate registered(ClassLoader loader) {
        List<Candidate> found = new ArrayList<>();
        try {
            for (ServiceLoader.Provider<JobWorker> p : ServiceLoader.load(JobWorker.class, loader).stream().toList()) {
                found.add(new Candidate(p.type(), p::get));
            }
            for (ServiceLoader.Provider<JobWorkerProvider> p
                    : ServiceLoader.load(JobWorkerProvider.class, loader).stream().toList()) {
                found.add(new Candidate(p.type(), p::get));
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalArgumentException("a registered worker can not be loaded: " + e.getMessage());
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException("no worker: register your " + JobWorker.class.getName()
                    + " (or a " + JobWorkerProvider.class.getName() + ") in META-INF/services/ of a jar on the"
                    + " class path, or name its class with --worker=CLASS");
        }
        if (found.size() > 1) {
            throw new IllegalArgumentException(found.size() + " workers are registered ("
                    + String.join(", ", found.stream().map(c -> c.type().getName()).toList())
                    + "): keep one on the class path, or choose one with --worker=CLASS");
        }
        return found.getFirst();
    }

    private static Object instantiate(Class<?> type, String what) {
        // Said before Java says it: "can not be made: java.lang.InstantiationException" named no reason, and a class
        // that is not public came out as IllegalAccessException's sentence about WorkerLoader.
        if (!type.isInterface() && Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException(what + " is abstract: name a class that can be made");
        }
        try {
            return type.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(what + " has no public no-argument constructor");
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(what + ": its constructor threw " + e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(what + " is not public: it, and any class it is nested in, must be"
                    + " public for the tier2 to make it");
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(what + " can not be made: " + e);
        }
    }

    /** Why a registered class could not be made, as {@link #instantiate} says it for one named by {@code --worker}. */
    private static String couldNotMake(String name, ServiceConfigurationError e) {
        Throwable why = e.getCause();
        if (why instanceof InstantiationException) {
            return name + " is abstract: register a class that can be made";
        }
        if (why instanceof ExceptionInInitializerError init) {
            return failedToInitializeMessage(name, init);
        }
        if (why instanceof ReflectiveOperationException || why == null) {
            return name + " can not be made: " + e.getMessage() + (why == null ? "" : " (" + why.getMessage() + ")");
        }
        return name + ": its constructor threw " + why;
    }

    /** A worker class found, and how to make an instance of it. */
    private record Candidate(Class<?> type, Supplier<?> instance) {

        JobWorker make(List<String> options) throws Exception {
            Object o;
            try {
                o = instance.get();
            } catch (ServiceConfigurationError e) {
                // ServiceLoader's own words ("Provider X could not be instantiated") keep why in the cause only
                throw new IllegalArgumentException(couldNotMake(type.getName(), e));
            }
            if (o instanceof JobWorkerProvider provider) {
                JobWorker worker = provider.create(List.copyOf(options));
                if (worker == null) {
                    throw new IllegalArgumentException(type.getName() + ".create returned no worker");
                }
                return worker;
            }
            if (!options.isEmpty()) {
                throw new IllegalArgumentException("unknown option '" + options.getFirst() + "' (the worker "
                        + type.getName() + " takes no options)");
            }
            return (JobWorker) o;
        }
    }
}
