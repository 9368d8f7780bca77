package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@link SondeCommand#commandLine(String...)}: a command line naming a sub-command builds only
 * that one, and it reads as in the whole tree (same usage, same sub-commands of its own).
 */
class SondeCommandLineTest {

    @Test
    void aNamedSubcommandIsBuiltAloneAndReadsAsInTheWholeTree() {
        Map<String, CommandLine> all = SondeCommand.commandLine().getSubcommands();
        assertThat(all).containsKeys("help", "attach", "probes", "analyze", "suspend", "dashboard").hasSizeGreaterThan(15);
        for (Map.Entry<String, CommandLine> e : all.entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            Map<String, CommandLine> alone = SondeCommand.commandLine(e.getKey(), "--pid", "1").getSubcommands();
            assertThat(alone).as("sonde %s", e.getKey()).containsOnlyKeys(e.getKey());
            CommandLine sub = alone.get(e.getKey());
            assertThat(sub.getCommandSpec().qualifiedName()).isEqualTo("sonde " + e.getKey());
            assertThat(sub.getUsageMessage()).as("sonde %s --help", e.getKey()).isEqualTo(e.getValue().getUsageMessage());
            assertThat(sub.getSubcommands().keySet()).isEqualTo(e.getValue().getSubcommands().keySet());
        }
    }

    @Test
    void helpOptionsAndUnknownNamesGetTheWholeTree() {
        int all = SondeCommand.commandLine().getSubcommands().size();
        assertThat(SondeCommand.commandLine("help", "attach").getSubcommands()).hasSize(all);
        assertThat(SondeCommand.commandLine("--help").getSubcommands()).hasSize(all);
        assertThat(SondeCommand.commandLine("flip").getSubcommands()).hasSize(all);
    }
}
