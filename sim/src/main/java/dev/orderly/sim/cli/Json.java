package dev.orderly.sim.cli;

import java.util.List;
import java.util.Map;

/**
 * Writes a tree of maps, lists, strings, numbers, booleans and nulls as indented JSON. A number that is not finite
 * (NaN stands for "did not happen" in the report) is written as {@code null}.
 */
final class Json {

    private Json() {
    }

    /** {@code value} as a JSON document, ending with a newline. */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, "");
        return out.append('\n').toString();
    }

    private static void write(Object value, StringBuilder out, String indent) {
        switch (value) {
            case null -> out.append("null");
            case String s -> string(s, out);
            case Boolean b -> out.append(b);
            case Double d -> out.append(Double.isFinite(d) ? d.toString() : "null");
            case Number n -> out.append(n);
            case Map<?, ?> map -> {
                if (map.isEmpty()) {
                    out.append("{}");
                    return;
                }
                String inner = indent + "  ";
                out.append("{\n");
                int i = 0;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.append(inner);
                    string(String.valueOf(e.getKey()), out);
                    out.append(": ");
                    write(e.getValue(), out, inner);
                    out.append(++i < map.size() ? ",\n" : "\n");
                }
                out.append(indent).append('}');
            }
            case List<?> list -> {
                if (list.isEmpty()) {
                    out.append("[]");
                    return;
                }
                String inner = indent + "  ";
                out.append("[\n");
                for (int i = 0; i < list.size(); i++) {
                    out.append(inner);
                    write(list.get(i), out, inner);
                    out.append(i + 1 < list.size() ? ",\n" : "\n");
                }
                out.append(indent).append(']');
            }
            default -> throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
