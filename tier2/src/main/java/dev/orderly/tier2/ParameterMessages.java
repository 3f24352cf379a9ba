package dev.orderly.tier2;

import dev.orderly.api.ClosestName;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns picocli's messages about bad input into the words a person uses, for the tier2 launcher and the simulator's
 * {@code orderly} commands alike: {@code --seed must be a whole number, was 'abc'} rather than {@code 'abc' is not a
 * long}, the option named first in every refusal, and a mistyped option or command gets the closest known one
 * ({@code did you mean --segments?}). Public only so that the simulator's commands, in another module, word their
 * refusals the same way; not an API for embedders. Stateless.
 */
public final class ParameterMessages {

    /** A name further than this many edits from every known one is not a typo of any of them. */
    private static final int MAX_TYPO_EDITS = 3;

    private ParameterMessages() {
    }

    /** One line for {@code ex}, without the "see --help" the caller adds. */
    public static String forPeople(ParameterException ex) {
        if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            return unmatched(ex.getCommandLine().getCommandSpec(), unmatched.getUnmatched());
        }
        // picocli's own words for these ("Missing required parameter for option '--segments' (N)", "Missing required
        // option: '--outputs=...'") named the option last; every other refusal names it first. picocli says both in
        // the same exception: an option never given, and one given without its value.
        if (ex instanceof MissingParameterException missing && missing.getMissing().size() == 1
                && missing.getMissing().getFirst() instanceof OptionSpec option) {
            String given = option.longestName() + "=" + option.paramLabel();
            return option.longestName() + (String.valueOf(ex.getMessage()).startsWith("Missing required option")
                    ? " is required: " : " needs a value: ") + given;
        }
        if (ex instanceof OverwrittenOptionException twice && twice.getOverwritten() instanceof OptionSpec option) {
            return option.longestName() + " is given more than once; give it once";
        }
        if (ex.getArgSpec() instanceof OptionSpec option && ex.getValue() != null && ex.getCause() != null) {
            // A list option (the simulator's sweep --job-ratios) is judged by its elements: its own type, List, is no kind of number.
            Class<?>[] elements = option.auxiliaryTypes();
            Class<?> type = option.isMultiValue() && elements.length == 1 ? elements[0] : option.type();
            Optional<String> kind = kindOf(type);
            if (kind.isPresent()) {
                return option.longestName() + " must be " + kind.get() + range(type, ex.getValue()) + ", was '"
                        + ex.getValue() + "'";
            }
            if (ex.getCause() instanceof TypeConversionException conversion && conversion.getMessage() != null) {
                // The option's own converter said what is wrong; drop picocli's "Invalid value for option" before it.
                String why = firstLine(conversion.getMessage());
                return option.longestName() + (why.startsWith("must ") ? " " : ": ") + why;
            }
        }
        return firstLine(ex.getMessage());
    }

    private static String unmatched(CommandSpec spec, List<String> args) {
        String arg = args.get(0);
        boolean option = arg.startsWith("-");
        String name = option ? arg.split("=", 2)[0] : arg;
        String what = option ? "unknown option '" + name + "'"
                : spec.subcommands().isEmpty() ? "unexpected argument '" + arg + "'"
                : "unknown command or argument '" + arg + "'";
        List<String> known = new ArrayList<>();
        if (option) {
            spec.options().stream().filter(o -> !o.hidden()).forEach(o -> known.addAll(List.of(o.names())));
        } else {
            known.addAll(spec.subcommands().keySet());
        }
        return what + closest(name, known).map(c -> "; did you mean " + c + "?").orElse("");
    }

    /**
     * The known name fewest edits away from {@code name}, if it is close enough to be a typo of it: at most
     * {@link #MAX_TYPO_EDITS} edits, and at most half of its letters (dashes aside). Three edits alone took any short
     * word for a typo: {@code help} got {@code sweep}, {@code -x} got {@code -o}.
     */
    public static Optional<String> closest(String name, Collection<String> known) {
        int letters = name.replaceFirst("^-+", "").length();
        return ClosestName.among(name, known, Math.min(MAX_TYPO_EDITS, letters / 2));
    }

    private static Optional<String> kindOf(Class<?> type) {
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class
                || type == short.class || type == Short.class) {
            return Optional.of("a whole number");
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return Optional.of("a number");
        }
        if (type == boolean.class || type == Boolean.class) {
            return Optional.of("true or false");
        }
        return Optional.empty();
    }

    /**
     * For a whole number too large for {@code type} (it is one, so "must be a whole number" alone would be wrong),
     * the range {@code type} holds; else nothing.
     */
    private static String range(Class<?> type, String value) {
        if (!value.strip().matches("[+-]?[0-9]+")) {
            return "";
        }
        // Only a number that does not fit: ' 5' was refused for its space, and was told a range that holds 5.
        BigInteger number = new BigInteger(value.strip());
        if (type == long.class || type == Long.class) {
            return outside(number, Long.MIN_VALUE, Long.MAX_VALUE);
        }
        if (type == int.class || type == Integer.class) {
            return outside(number, Integer.MIN_VALUE, Integer.MAX_VALUE);
        }
        if (type == short.class || type == Short.class) {
            return outside(number, Short.MIN_VALUE, Short.MAX_VALUE);
        }
        return "";
    }

    /** The range {@code min..max} in words when {@code number} is outside it; else nothing. */
    private static String outside(BigInteger number, long min, long max) {
        return number.compareTo(BigInteger.valueOf(min)) < 0 || number.compareTo(BigInteger.valueOf(max)) > 0
                ? " from " + min + " to " + max : "";
    }

    /**
     * The value of {@code option} as it was written on the command line (its last, if given more than once), for a
     * refusal to name: a value converted and written back may read otherwise ({@code -500us} as "0s"). {@code
     * otherwise} when the option was not given.
     */
    public static String given(CommandLine cl, String option, String otherwise) {
        CommandLine.ParseResult parsed = cl.getParseResult();
        if (parsed != null && parsed.hasMatchedOption(option)) {
            List<String> strings = parsed.matchedOption(option).originalStringValues();
            if (!strings.isEmpty()) {
                return strings.getLast();
            }
        }
        return otherwise;
    }

    /** The first line of {@code s}, without the blank space around it. */
    public static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
