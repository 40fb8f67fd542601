package io.mvsink.config;

import java.util.Collection;
import java.util.Optional;

/** The known name nearest a misspelt one, by edit distance, for "did you mean" in an error. */
final class Nearest {

    private Nearest() {
    }

    /**
     * The candidate fewest single-character edits away from {@code name} (the first in iteration
     * order on a tie), if it is close enough to be a typo: at most 2 edits, or a fifth of the name.
     */
    static Optional<String> to(String name, Collection<String> candidates) {
        int limit = Math.max(2, name.length() / 5);
        String best = null;
        int bestDistance = limit + 1;
        for (String candidate : candidates) {
            if (Math.abs(candidate.length() - name.length()) < bestDistance) {
                int distance = distance(name, candidate);
                if (distance < bestDistance) {
                    best = candidate;
                    bestDistance = distance;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
