package dev.orderly.sim.cli;

import dev.orderly.tier2.ParameterMessages;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The one way every option whose values are a fixed set (an enum: {@code --strategy}, {@code --format},
 * {@code --admission}, {@code --store}) reads its value and refuses a wrong one. A value is its constant's name in
 * lower case, read in any case; a wrong one is one line with the value, the closest value when it looks like a typo,
 * and the values: {@code 'gcs' is not a store; use file or s3}, {@code 'odered' is not a strategy; did you mean
 * ordered? use one of ordered, unordered, ...}. {@link ParameterMessages} puts the option's name before it. Without
 * such a converter picocli would refuse in its own words ({@code expected one of [file, s3] (case-sensitive)}), so
 * every enum option names one (EveryChoiceOptionIsRefusedInTheProjectsWordsTest walks every command's options).
 * Stateless.
 */
final class Choices {

    private Choices() {
    }

    /** The value of {@code constant} on the command line. */
    static String label(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /** Every value of {@code type}, in declaration order. */
    static List<String> labels(Class<? extends Enum<?>> type) {
        return Arrays.stream(type.getEnumConstants()).map(Choices::label).toList();
    }

    /**
     * The constant of {@code type} whose value is {@code value}, in any case.
     *
     * @param what the article and noun a value is, such as {@code "a store"}
     * @throws TypeConversionException saying {@code value} is not {@code what}, and listing the values
     */
    static <E extends Enum<E>> E parse(Class<E> type, String what, String value) {
        String wanted = value.strip().toLowerCase(Locale.ROOT);
        for (E constant : type.getEnumConstants()) {
            if (label(constant).equals(wanted)) {
                return constant;
            }
        }
        List<String> labels = labels(type);
        // As for options and commands: 'gcs' is no typo of 's3', but 'odered' is one of 'ordered'.
        String suggestion = ParameterMessages.closest(wanted, labels)
                .map(label -> "did you mean " + label + "? ").orElse("");
        String use = labels.size() == 2 ? labels.get(0) + " or " + labels.get(1)
                : "one of " + String.join(", ", labels);
        throw new TypeConversionException("'" + value + "' is not " + what + "; " + suggestion + "use " + use);
    }

    /** A converter of one enum's values; a subclass names the enum and what a value is. */
    abstract static class Converter<E extends Enum<E>> implements ITypeConverter<E> {
        private final Class<E> type;
        private final String what;

        /**
         * @param type the enum
         * @param what the article and noun a value is, such as {@code "a store"}
         */
        Converter(Class<E> type, String what) {
            this.type = type;
            this.what = what;
        }

        @Override
        public final E convert(String value) {
            return parse(type, what, value);
        }
    }
}
