package io.sonde.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@link AgentState.Status}: published as system properties and read back as it was. */
class AgentStateTest {

    @Test
    void statusReadsBackAsPublished() {
        AgentState.Status s = new AgentState.Status(
                List.of("status: not monitoring: bad options", "probes: 0 (0 on), classes instrumented: 0",
                        "records.produced=0", "error: attach options entry 2: bad value 'x' for key 'policy'"), 1);
        Properties p = new Properties();
        s.publish(p);
        assertThat(AgentState.Status.of(p)).isEqualTo(s);
    }

    @Test
    void anAgentThatPublishesNoStatusHasNone() {
        Properties p = new Properties();
        assertThat(AgentState.Status.of(p)).isNull();
        p.setProperty(AgentState.STATUS_PROPERTY, "status: monitoring");
        assertThat(AgentState.Status.of(p)).as("no error count").isNull();
        p.setProperty(AgentState.STATUS_ERRORS_PROPERTY, "many");
        assertThat(AgentState.Status.of(p)).as("an error count that is not a number").isNull();
        p.setProperty(AgentState.STATUS_ERRORS_PROPERTY, "0");
        assertThat(AgentState.Status.of(p)).isEqualTo(new AgentState.Status(List.of("status: monitoring"), 0));
    }

    @Test
    void theDirectiveMarkIsTakenOffBeforeTheOptionsAreRead() {
        assertThat(AgentState.withDirectiveMark("include=a.*,writer=discard"))
                .isEqualTo(AgentState.DIRECTIVE_ADDED_MARK + ",include=a.*,writer=discard");
        for (String options : new String[] {"", "include=a.*", "include=a.*,writer=discard"}) {
            String marked = AgentState.withDirectiveMark(options);
            assertThat(AgentState.hasDirectiveMark(marked)).as(marked).isTrue();
            assertThat(AgentState.withoutDirectiveMark(marked)).isEqualTo(options);
            assertThat(AgentState.hasDirectiveMark(options)).as(options).isFalse();
            assertThat(AgentState.withoutDirectiveMark(options)).isEqualTo(options);
        }
        // only as the first entry, and only the whole entry
        assertThat(AgentState.hasDirectiveMark("include=a.*," + AgentState.DIRECTIVE_ADDED_MARK)).isFalse();
        assertThat(AgentState.hasDirectiveMark(AgentState.DIRECTIVE_ADDED_MARK + "x")).isFalse();
        assertThat(AgentState.hasDirectiveMark(null)).isFalse();
        assertThat(AgentState.withoutDirectiveMark(null)).isNull();
    }
}
