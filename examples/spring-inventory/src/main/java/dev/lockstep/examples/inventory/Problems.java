package dev.lockstep.examples.inventory;

import dev.lockstep.LockException;
import dev.lockstep.starter.LockNotTakenException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import redis.clients.jedis.exceptions.JedisException;

/** Every refusal as an RFC 9457 problem: a status, a title, and a detail that says what was wrong. */
@RestControllerAdvice
class Problems extends ResponseEntityExceptionHandler {

    @ExceptionHandler(Refusal.class)
    ProblemDetail refused(Refusal refusal) {
        return ProblemDetail.forStatusAndDetail(refusal.status(), refusal.getMessage());
    }

    /** A restock or a funding whose lock stayed taken for {@code inventory.lock-wait}: nothing was changed. */
    @ExceptionHandler(LockNotTakenException.class)
    ProblemDetail lockBusy(LockNotTakenException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage() + "; nothing was changed, try again");
    }

    /** Redis down, or refusing the lock's commands: nothing was sold. */
    @ExceptionHandler({LockException.class, JedisException.class})
    ProblemDetail redisFailed(RuntimeException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "Redis failed (" + e.getMessage() + "); nothing was sold, try again");
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        // No cause: no body at all. Otherwise the parser's first line says where the JSON broke.
        String why = e.getCause() == null ? "none was sent" : String.valueOf(e.getCause().getMessage()).lines().findFirst().orElse("");
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, "the body must be JSON such as {\"quantity\": 1}: " + why);
        return handleExceptionInternal(e, body, headers, status, request);
    }
}
