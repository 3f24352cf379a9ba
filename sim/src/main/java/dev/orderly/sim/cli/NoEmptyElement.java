package dev.orderly.sim.cli;

import java.util.Arrays;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Refuses a list option's value with an empty element ({@code --job-ratios=5,}, {@code 1,,2}, {@code ,5}) naming the
 * option and the value as written. picocli's split drops trailing empty elements, so {@code 5,} ran as {@code 5}
 * while {@code 1,,2} was refused: every list option (one with a {@code split}) names this as its preprocessor, and
 * a test checks that none is left out. A wholly empty value ({@code --fullness=}) is left to the
 * option's converter, which says what the element must be. Stateless.
 */
final class NoEmptyElement implements IParameterPreprocessor {

    @Override
    public boolean preprocess(Stack<String> args, CommandSpec command, ArgSpec arg, Map<String, Object> info) {
        if (!args.isEmpty() && arg instanceof OptionSpec option && !option.splitRegex().isEmpty()) {
            String value = args.peek();
            // -1 keeps the trailing empty elements that picocli's own split would drop.
            if (!value.isEmpty() && Arrays.stream(value.split(option.splitRegex(), -1)).anyMatch(String::isEmpty)) {
                throw new ParameterException(command.commandLine(), option.longestName()
                        + " has an empty element, was '" + value + "'");
            }
        }
        return false; // picocli goes on with the value as usual
    }
}
