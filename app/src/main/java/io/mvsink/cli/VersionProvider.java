package io.mvsink.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code --version} of every command: the Implementation-Version of the jar's manifest. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"mvsink " + version()};
    }

    /** The jar's version, or "unknown" when run from classes (tests, an IDE). */
    static String version() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "unknown" : version;
    }
}
