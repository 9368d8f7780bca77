package io.sonde.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptionsParserTest {

    @TempDir
    Path dir;

    @Test
    void emptyOptionsMonitorNothing() {
        OptionsParser.Result r = OptionsParser.parse(null);
        assertThat(r.ok()).isTrue();
        assertThat(r.options().methods().selectsNothing()).isTrue();
        assertThat(r.options().threads().acceptsAll()).isTrue();
        assertThat(r.options().executors()).isTrue();
        assertThat(r.options().jmx()).isTrue();
        assertThat(r.options().probesOn()).isTrue();
    }

    @Test
    void probesOffStartsEveryProbeSwitchedOff() {
        assertThat(OptionsParser.parse("include=a.*,probes=off").options().probesOn()).isFalse();
        assertThat(OptionsParser.parse("probes=off,probes=on").options().probesOn()).isTrue();
        assertThat(OptionsParser.parse("probes=later").errors()).containsExactly(
                "-javaagent options entry 1: option 'probes': expected on/off (true/false, yes/no), got 'later'");
    }

    @Test
    void observeOptionsReachTheCoreAndBadValuesNameTheEntry() {
        OptionsParser.Result r = OptionsParser.parse("observe=on,observe.port=7800,observe.token.file=/run/sonde.token");
        assertThat(r.errors()).isEmpty();
        assertThat(r.options().coreSettings()).containsEntry("observe", "on").containsEntry("observe.port", "7800")
                .containsEntry("observe.token.file", "/run/sonde.token");
        assertThat(OptionsParser.parse("observe=maybe").errors()).singleElement().asString()
                .startsWith("-javaagent options entry 1: ").contains("observe", "must be one of off, on");
        assertThat(OptionsParser.parse("include=a.*,observe.port=-1").errors()).singleElement().asString()
                .startsWith("-javaagent options entry 2: ").contains("between 0 and 65535");
    }

    @Test
    void inlineOptionsKeepRuleOrderAndPassCoreKeys() {
        OptionsParser.Result r = OptionsParser.parse(
                "exclude=com.acme.internal.*,include=com.acme.*;org.x.Y.run,include.thread=worker-*,"
                        + "cpu=roots,writer=discard,executors=off,verbose=yes");
        assertThat(r.errors()).isEmpty();
        AgentOptions o = r.options();
        assertThat(o.methods().rules()).extracting(Object::toString)
                .containsExactly("exclude com.acme.internal.*", "include com.acme.*", "include org.x.Y.run");
        assertThat(o.threads().monitors("worker-2")).isTrue();
        assertThat(o.threads().monitors("main")).isFalse();
        assertThat(o.coreSettings()).containsEntry("cpu.time", "roots").containsEntry("writer", "discard");
        assertThat(o.executors()).isFalse();
        assertThat(o.verbose()).isTrue();
    }

    @Test
    void configFileEntriesApplyWhereTheFileIsNamed() throws Exception {
        Path f = dir.resolve("agent.conf");
        Files.writeString(f, "# comment\n\ninclude_method com.acme.Shop *\nexclude = *.get*\nfile.dir /tmp/out\n");
        OptionsParser.Result r = OptionsParser.parse("include=a.B.c,config=" + f + ",include=z.*");
        assertThat(r.errors()).isEmpty();
        assertThat(r.options().methods().rules()).extracting(Object::toString)
                .containsExactly("include a.B.c", "include com.acme.Shop.*", "exclude *.get*", "include z.*");
        assertThat(r.options().coreSettings()).containsEntry("file.dir", "/tmp/out");
        assertThat(r.options().sources()).containsExactly(OptionsParser.INLINE, f.toString());
    }

    @Test
    void errorsNameSourceLineAndOption() throws Exception {
        Path f = dir.resolve("bad.conf");
        Files.writeString(f, "include=ok.*\njmx=perhaps\npolicy=sometimes\nnonsense\n");
        OptionsParser.Result r = OptionsParser.parse("config=" + f + ",bogus=1,include=");
        assertThat(r.ok()).isFalse();
        assertThat(r.errors()).containsExactly(
                f + " line 2: option 'jmx': expected on/off (true/false, yes/no), got 'perhaps'",
                f + " line 3: bad value 'sometimes' for key 'policy': must be one of block, drop, block-forever",
                f + " line 4: 'nonsense' is not key=value",
                r.errors().get(3),
                "-javaagent options entry 3: option 'include' has an empty pattern");
        assertThat(r.errors().get(3))
                .startsWith("-javaagent options entry 2: unknown option 'bogus'; known options: config, include, exclude, "
                        + "include.thread, exclude.thread, cpu, executors, probes, jmx, verbose, weave.stats, weaver, writer, ")
                .doesNotContain(", config,");
    }

    @Test
    void theWeaverIsAsmUnlessByteBuddyIsAsked() {
        assertThat(OptionsParser.parse("include=a.*").options().weaver()).isEqualTo(AgentOptions.Weaver.ASM);
        assertThat(OptionsParser.parse("include=a.*,weaver=bytebuddy").options().weaver())
                .isEqualTo(AgentOptions.Weaver.BYTE_BUDDY);
        assertThat(OptionsParser.parse("weaver=javassist").errors())
                .containsExactly("-javaagent options entry 1: bad value 'javassist' for key 'weaver': must be one of asm, bytebuddy");
    }

    @Test
    void aConfigFileIncludingItselfStops() throws Exception {
        Path f = dir.resolve("loop.conf");
        Files.writeString(f, "config=" + f + "\n");
        OptionsParser.Result r = OptionsParser.parse("config=" + f);
        assertThat(r.errors()).singleElement().asString().contains("nest deeper than 8");
    }

    @Test
    void weaveStatsAndTheAttachSourceName() {
        assertThat(OptionsParser.parse("include=a.*").options().weaveStats()).isFalse();
        OptionsParser.Result r = OptionsParser.parse("include=a.*,weave.stats=on", OptionsParser.ATTACH);
        assertThat(r.options().weaveStats()).isTrue();
        assertThat(r.options().sources()).containsExactly("attach options");
        assertThat(OptionsParser.parse("weave.stats=much", OptionsParser.ATTACH).errors())
                .containsExactly("attach options entry 1: option 'weave.stats': expected on/off (true/false, yes/no), got 'much'");
    }
}
