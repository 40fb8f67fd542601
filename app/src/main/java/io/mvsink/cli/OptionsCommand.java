package io.mvsink.cli;

import io.mvsink.config.OptionsReference;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "options", description = "Prints the option reference (markdown), as the README shows it.")
final class OptionsCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.print(OptionsReference.markdown());
        return 0;
    }
}
