package dev.orderly.archtests;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A condition over a whole import rather than one class: at most one top-level class touches
 * {@code StructuredTaskScope} (or a nested type such as {@code StructuredTaskScope.Joiner}), and it lies in the
 * allowed package. A nested, inner, local or anonymous class counts as part of its top-level class, so a request scope
 * with its own {@code Joiner} is still one owner.
 *
 * <p>Every class is visited in {@link #check}, which only collects; the verdict is given in {@link #finish}, once all
 * owners are known. {@link #init} resets the collection, so one instance may evaluate several imports.
 */
final class SingleStructuredTaskScopeOwner extends ArchCondition<JavaClass> {

    static final String SCOPE = "java.util.concurrent.StructuredTaskScope";

    private final String allowedPackage;
    private final PackageMatcher allowed;
    // Top-level class name -> the dependencies on the scope API found in it and its nested classes, sorted by name
    // so the report reads the same on every run.
    private Map<String, List<Dependency>> owners = new TreeMap<>();
    private Map<String, JavaClass> topLevel = new TreeMap<>();

    SingleStructuredTaskScopeOwner(String allowedPackage) {
        super("be the only class touching " + SCOPE + " (at most one top-level class, in " + allowedPackage + ")");
        this.allowedPackage = allowedPackage;
        this.allowed = PackageMatcher.of(allowedPackage);
    }

    @Override
    public void init(java.util.Collection<JavaClass> allObjectsToTest) {
        owners = new TreeMap<>();
        topLevel = new TreeMap<>();
    }

    @Override
    public void check(JavaClass javaClass, ConditionEvents events) {
        List<Dependency> onScope = javaClass.getDirectDependenciesFromSelf().stream()
                .filter(d -> isScopeType(d.getTargetClass()))
                .toList();
        if (!onScope.isEmpty()) {
            JavaClass outer = topLevelOf(javaClass);
            owners.computeIfAbsent(outer.getName(), k -> new ArrayList<>()).addAll(onScope);
            topLevel.put(outer.getName(), outer);
        }
    }

    @Override
    public void finish(ConditionEvents events) {
        if (owners.size() > 1) {
            for (Map.Entry<String, List<Dependency>> owner : owners.entrySet()) {
                events.add(SimpleConditionEvent.violated(topLevel.get(owner.getKey()),
                        owners.size() + " classes touch " + SCOPE + " " + owners.keySet() + "; "
                                + owner.getKey() + " is one of them: " + describe(owner.getValue())));
            }
        }
        for (Map.Entry<String, List<Dependency>> owner : owners.entrySet()) {
            JavaClass outer = topLevel.get(owner.getKey());
            if (!allowed.matches(outer.getPackageName())) {
                events.add(SimpleConditionEvent.violated(outer, owner.getKey() + " touches " + SCOPE
                        + " outside " + allowedPackage + ": " + describe(owner.getValue())));
            }
        }
    }

    private static boolean isScopeType(JavaClass target) {
        JavaClass base = target.isArray() ? target.getBaseComponentType() : target;
        String name = base.getName();
        return name.equals(SCOPE) || name.startsWith(SCOPE + "$");
    }

    private static JavaClass topLevelOf(JavaClass javaClass) {
        JavaClass current = javaClass;
        while (current.getEnclosingClass().isPresent()) {
            current = current.getEnclosingClass().get();
        }
        return current;
    }

    private static String describe(List<Dependency> dependencies) {
        return dependencies.stream().limit(3).map(Dependency::getDescription).collect(Collectors.joining("; "))
                + (dependencies.size() > 3 ? "; and " + (dependencies.size() - 3) + " more" : "");
    }
}
