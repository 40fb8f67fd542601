package io.mvsink.local;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives integration tests the local stack: {@code @ExtendWith(LocalStackExtension.class)} and
 * declare a {@link LocalStack} parameter (or a {@link TestBroker} one to stop or restart the
 * broker). The stack starts once per test run, on first use, and is kept in the root
 * context's store, which closes it when the run ends. Kafka runs in this JVM; Apicurio and
 * Azurite run as child processes, which a shutdown hook also ends if the run is killed.
 */
public final class LocalStackExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LocalStackExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        stack(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LocalStack.class || type == TestBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TestStack stack = stack(context);
        return parameter.getParameter().getType() == TestBroker.class ? stack.broker() : stack;
    }

    private static TestStack stack(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(TestStack.class, key -> TestStack.start(), TestStack.class);
    }
}
