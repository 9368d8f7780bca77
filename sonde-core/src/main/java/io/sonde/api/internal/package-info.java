/**
 * NOT API. Access to the internals behind {@link io.sonde.api.Monitor} for the parts of Sonde that
 * need more than the public API: the java agent, the command-line tools, benchmarks and tests.
 * Everything here may change or disappear in any release without notice; applications must not
 * use it.
 *
 * <p>The API package never refers to this package (so the API stays a thin facade with no
 * dependency on its escape hatch); this package reaches the package-private members of the API
 * classes through method handles instead.
 */
package io.sonde.api.internal;
