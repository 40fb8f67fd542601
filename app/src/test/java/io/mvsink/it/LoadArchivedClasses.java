package io.mvsink.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads (without initialising) every class a CDS class list names, in a JVM that maps the archive
 * made from it: {@code RunnableJarIT} runs it with a class file load hook on (Flight Recorder),
 * under which JDK 17 crashed loading classes that {@code -Xshare:dump} had generated itself.
 * Prints how many classes loaded and exits 0; a crash ends the JVM with a signal instead.
 */
public final class LoadArchivedClasses {
    private LoadArchivedClasses() {
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        int loaded = 0;
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("@")) {
                continue;
            }
            String name = line.split("\\s+")[0].replace('/', '.');
            try {
                Class.forName(name, false, loader);
                loaded++;
            } catch (Throwable e) {
                // a class the list names that this JVM cannot load (e.g. a JFR event class): not the point here
            }
        }
        System.out.println("loaded " + loaded + " classes");
    }
}
