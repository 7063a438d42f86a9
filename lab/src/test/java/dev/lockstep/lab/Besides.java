package dev.lockstep.lab;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers a run marker lets its block quote although the run's pages do not show them, listed
 * after {@code besides}: a setting with what it is ({@code 300 (the lease)}), or a figure worked out
 * from the run's ({@code 107 (394 - 287)}, {@code 154 ((2508 - 46) / 16)}). A worked-out figure is
 * checked: its arithmetic must give it, and each number it starts from must be the run's or
 * another listed one, so it goes stale with the run like any quoted figure.
 */
final class Besides {

    /** A number and the parenthesis after it (one level of parentheses inside). */
    private static final Pattern ENTRY = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*\\(((?:[^()]|\\([^()]*\\))*)\\)");
    private static final Pattern ARITHMETIC = Pattern.compile("[\\d.\\s()+*/-]+");

    private final String text;
    private final Set<String> numbers = new HashSet<>();

    private Besides(String text) {
        this.text = RunPage.withoutThousands(text);
        // What a parenthesis says is no listed figure: an arithmetic's operands must be the run's own.
        Matcher number = RunPage.NUMBER.matcher(this.text.replaceAll("\\((?:[^()]|\\([^()]*\\))*\\)", " "));
        while (number.find()) {
            numbers.add(number.group());
        }
    }

    /** The list after {@code besides} in a marker, empty when the marker has none ({@code text} null). */
    static Besides of(String text) {
        return new Besides(text == null ? "" : text);
    }

    /** Whether {@code number} is listed (not only named inside a parenthesis). */
    boolean lists(String number) {
        return numbers.contains(number);
    }

    /** What is wrong with the worked-out figures, judged by {@code theRuns} (whether the run has a number). */
    List<String> problems(Predicate<String> theRuns) {
        List<String> problems = new ArrayList<>();
        Matcher entry = ENTRY.matcher(text);
        while (entry.find()) {
            String expression = entry.group(2).strip();
            if (!ARITHMETIC.matcher(expression).matches() || !expression.matches(".*\\d\\s*[-+*/].*")) {
                continue;
            }
            String quoted = entry.group(1);
            Matcher operand = RunPage.NUMBER.matcher(expression);
            while (operand.find()) {
                if (!theRuns.test(operand.group()) && !lists(operand.group())) {
                    problems.add("works " + quoted + " out from " + operand.group() + ", which the run does not have");
                }
            }
            double value = FigureExpression.evaluate(null, expression.replaceAll("([()])", " $1 "));
            int decimals = quoted.contains(".") ? quoted.length() - quoted.indexOf('.') - 1 : 0;
            if (Math.abs(value - Double.parseDouble(quoted)) >= 0.5 * Math.pow(10, -decimals)) {
                problems.add("lists " + quoted + " as " + expression + ", which gives "
                        + String.format(Locale.ROOT, "%." + decimals + "f", value));
            }
        }
        return problems;
    }
}
