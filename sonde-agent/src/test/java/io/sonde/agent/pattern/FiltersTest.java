package io.sonde.agent.pattern;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FiltersTest {

    @Test
    void methodRulesApplyTopToBottomAndDefaultToNotMonitored() {
        MethodFilter f = new MethodFilter(List.of(
                Rule.exclude("com.acme.internal.*"), Rule.include("com.acme.*"), Rule.exclude("*.get*")));
        assertThat(f.selects("com.acme.Shop", "getPrice")).isTrue(); // include comes first
        assertThat(f.selects("com.acme.internal.Cache", "put")).isFalse();
        assertThat(f.selects("org.other.Thing", "run")).isFalse(); // no rule: not monitored
        assertThat(new MethodFilter(List.of()).selectsNothing()).isTrue();
        assertThat(new MethodFilter(List.of(Rule.exclude("*"))).selectsNothing()).isTrue();
        assertThat(f.selectsNothing()).isFalse();
    }

    @Test
    void classPreselectionIsConservative() {
        MethodFilter f = new MethodFilter(List.of(Rule.include("com.acme.*.get*"), Rule.include("*.main")));
        assertThat(f.maySelectClass("com.acme.Shop")).isTrue();
        assertThat(f.maySelectClass("org.Other")).isTrue(); // *.main could match org.Other.main
        MethodFilter narrow = new MethodFilter(List.of(Rule.include("com.acme.Shop.*")));
        assertThat(narrow.maySelectClass("com.acme.Shop")).isTrue();
        assertThat(narrow.maySelectClass("com.acme.Shopping")).isFalse();
        assertThat(narrow.maySelectClass("com.acme.Shop$Cart")).isFalse();
    }

    @Test
    void threadRulesFirstMatchWinsDefaultDependsOnIncludes() {
        ThreadFilter onlyWorkers = new ThreadFilter(List.of(Rule.include("worker-*")));
        assertThat(onlyWorkers.monitors("worker-3")).isTrue();
        assertThat(onlyWorkers.monitors("main")).isFalse();

        ThreadFilter allButNoisy = new ThreadFilter(List.of(Rule.exclude("noisy-*")));
        assertThat(allButNoisy.monitors("main")).isTrue();
        assertThat(allButNoisy.monitors("noisy-1")).isFalse();

        ThreadFilter ordered = new ThreadFilter(List.of(Rule.exclude("worker-9"), Rule.include("worker-*")));
        assertThat(ordered.monitors("worker-9")).isFalse();
        assertThat(ordered.monitors("worker-1")).isTrue();

        assertThat(new ThreadFilter(List.of()).acceptsAll()).isTrue();
        assertThat(new ThreadFilter(List.of()).monitors("anything")).isTrue();
    }
}
