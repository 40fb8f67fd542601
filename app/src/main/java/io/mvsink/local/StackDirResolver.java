package io.mvsink.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the {@code local-stack} directory: an explicit option wins, then the system property
 * {@value #PROPERTY} (set by failsafe), then {@code ./local-stack}, then a {@code local-stack}
 * beside one of the few directories above the running jar ({@code app/target/mvsink.jar} lies
 * two levels below the repository root).
 */
final class StackDirResolver {

    static final String PROPERTY = "mvsink.stack.dir";
    static final String DIR_NAME = "local-stack";
    private static final int MAX_LEVELS_ABOVE_CODE = 4;

    private StackDirResolver() {
    }

    static Path resolve(Optional<Path> explicit, Optional<String> property, Path workingDir,
                        Optional<Path> codeLocation) {
        if (explicit.isPresent()) {
            return explicit.get();
        }
        if (property.isPresent() && !property.get().isBlank()) {
            return Path.of(property.get());
        }
        List<Path> searched = new ArrayList<>();
        searched.add(workingDir.resolve(DIR_NAME));
        Path above = codeLocation.map(p -> p.toAbsolutePath().getParent()).orElse(null);
        for (int level = 0; above != null && level < MAX_LEVELS_ABOVE_CODE; level++) {
            searched.add(above.resolve(DIR_NAME));
            above = above.getParent();
        }
        for (Path candidate : searched) {
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new LocalStackException("could not find the local stack directory (searched "
                + searched + "; set -D" + PROPERTY + " to choose one); " + StackLayout.BUILD_HINT);
    }

    /** Where this class was loaded from: the jar, or a classes directory. */
    static Optional<Path> codeLocation() {
        try {
            return Optional.of(Path.of(StackDirResolver.class.getProtectionDomain()
                    .getCodeSource().getLocation().toURI()));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
