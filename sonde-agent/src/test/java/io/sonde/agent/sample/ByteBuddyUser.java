package io.sonde.agent.sample;

/**
 * Part of the sample application that uses its own (unshaded) Byte Buddy, found on its class
 * path: it must not meet the agent's relocated copy. A class of its own, so the other scenarios
 * run without Byte Buddy on the class path.
 */
public final class ByteBuddyUser {

    private ByteBuddyUser() {}

    /** Creates a class at run time with the application's Byte Buddy and calls it. */
    static void ownByteBuddy() throws Exception {
        Class<?> made = new net.bytebuddy.ByteBuddy()
                .subclass(Object.class)
                .name("io.sonde.agent.sample.Made")
                .method(net.bytebuddy.matcher.ElementMatchers.named("toString"))
                .intercept(net.bytebuddy.implementation.FixedValue.value("made by the app's Byte Buddy"))
                .make()
                .load(ByteBuddyUser.class.getClassLoader())
                .getLoaded();
        System.out.println(made.getDeclaredConstructor().newInstance());
        System.out.println("byte buddy " + net.bytebuddy.ByteBuddy.class.getProtectionDomain().getCodeSource().getLocation());
        new SampleApp.Shop().checkout(2);
    }
}
