package dev.lockstep.starter;

import dev.lockstep.Locks;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;

/**
 * Proxies every bean with a {@link Locked} method, or adds the lock to its existing proxy (a
 * transactional bean's, say), as Spring's {@code @Async} support does: no AspectJ, and no
 * auto-proxy creator needed. The lock goes first, so a transaction runs inside the lock.
 */
public class LockedMethodsPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

    private final LockedInterceptor interceptor;

    /**
     * Locks through {@code locks} as {@code properties} say, observing waits and holds in
     * {@code observations} when there is one; {@code ${...}} in the annotation resolves in {@code environment}.
     */
    public LockedMethodsPostProcessor(ObjectProvider<Locks> locks, ObjectProvider<LockstepProperties> properties,
                                      ObjectProvider<ObservationRegistry> observations, Environment environment) {
        this.interceptor = new LockedInterceptor(locks, properties, observations, environment);
        this.advisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Locked.class, true), interceptor);
        setBeforeExistingAdvisors(true);
        // Service classes rarely have interfaces; a class proxy also keeps the bean's own type injectable.
        setProxyTargetClass(true);
    }

    /** Proxies {@code bean} when it has {@link Locked} methods, checking their attributes first. */
    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (isEligible(bean, beanName)) {
            interceptor.check(AopUtils.getTargetClass(bean));
        }
        return super.postProcessAfterInitialization(bean, beanName);
    }
}
