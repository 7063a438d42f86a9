package dev.lockstep.testkit.model;

/**
 * A broken rule: which one (shrinking keeps a history only while the same rule still breaks), and
 * what happened.
 *
 * @param rule   a short name: {@code stuck-hold}, {@code model-vs-redis}, {@code model-vs-lock}, ...
 * @param detail who, what and the state of Redis
 */
public record Violation(String rule, String detail) {

    @Override
    public String toString() {
        return rule + ": " + detail;
    }
}
