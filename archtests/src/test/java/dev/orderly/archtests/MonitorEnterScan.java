package dev.orderly.archtests;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.Source;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.LineNumber;
import java.lang.classfile.instruction.MonitorInstruction;
import java.lang.constant.ClassDesc;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Finds {@code synchronized} blocks, which ArchUnit can not see: it imports calls, field accesses and dependencies,
 * but not the {@code monitorenter} instruction a block compiles to. This condition reads the class file ArchUnit
 * imported (from {@link JavaClass#getSource()}) with the JDK's {@code java.lang.classfile} API and reports every
 * {@code monitorenter} with its method and line.
 *
 * <p>A class whose file can not be read is reported as a violation, never passed unseen.
 */
final class MonitorEnterScan {

    private MonitorEnterScan() {
    }

    static ArchCondition<JavaClass> notEnterAMonitor() {
        return new ArchCondition<>("not enter a monitor (contain a synchronized block)") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                Optional<Source> source = javaClass.getSource();
                if (source.isEmpty()) {
                    events.add(SimpleConditionEvent.violated(javaClass, "Class <" + javaClass.getName()
                            + "> has no class file to scan for synchronized blocks"));
                    return;
                }
                ClassModel model;
                try (InputStream in = source.get().getUri().toURL().openStream()) {
                    model = ClassFile.of().parse(in.readAllBytes());
                } catch (IOException | IllegalArgumentException e) {
                    events.add(SimpleConditionEvent.violated(javaClass, "Class <" + javaClass.getName()
                            + "> could not be scanned for synchronized blocks (" + source.get().getUri() + "): "
                            + e));
                    return;
                }
                String fileName = source.get().getFileName().orElse(javaClass.getSimpleName() + ".class");
                int found = 0;
                for (MethodModel method : model.methods()) {
                    Optional<CodeModel> code = method.code();
                    if (code.isEmpty()) {
                        continue;
                    }
                    int line = -1;
                    for (CodeElement element : code.get()) {
                        if (element instanceof LineNumber number) {
                            line = number.line();
                        } else if (element instanceof MonitorInstruction monitor
                                && monitor.opcode() == Opcode.MONITORENTER) {
                            found++;
                            events.add(SimpleConditionEvent.violated(javaClass, "Method <" + javaClass.getName()
                                    + "." + method.methodName().stringValue() + parameters(method)
                                    + "> enters a monitor (synchronized block) in (" + fileName + ":" + line + ")"));
                        }
                    }
                }
                if (found == 0) {
                    events.add(SimpleConditionEvent.satisfied(javaClass,
                            "Class <" + javaClass.getName() + "> enters no monitor"));
                }
            }
        };
    }

    private static String parameters(MethodModel method) {
        return method.methodTypeSymbol().parameterList().stream()
                .map(ClassDesc::displayName)
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
