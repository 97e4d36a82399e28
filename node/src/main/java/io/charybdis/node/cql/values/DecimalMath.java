package io.charybdis.node.cql.values;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * exp, ln and log10 of decimals to 32 significant digits (rounded half-even), the precision of Cassandra 5.0's
 * decimal math functions. Computed with guard digits: a Taylor series after halving the argument for exp, Halley
 * iterations on exp for ln.
 */
final class DecimalMath {
    static final MathContext RESULT = new MathContext(32, RoundingMode.HALF_EVEN);
    private static final int GUARD = 20;

    private DecimalMath() {
    }

    static BigDecimal exp(BigDecimal x) {
        if (x.signum() == 0) {
            return BigDecimal.ONE;
        }
        return expWork(x, RESULT.getPrecision() + GUARD).round(RESULT);
    }

    static BigDecimal log(BigDecimal x) {
        checkPositive(x, "Natural log");
        return ln(x, RESULT.getPrecision() + GUARD).round(RESULT);
    }

    static BigDecimal log10(BigDecimal x) {
        checkPositive(x, "Log10");
        int digits = RESULT.getPrecision() + GUARD;
        MathContext mc = new MathContext(digits, RoundingMode.HALF_EVEN);
        return ln(x, digits).divide(ln(BigDecimal.TEN, digits), mc).round(RESULT);
    }

    private static void checkPositive(BigDecimal x, String what) {
        if (x.signum() <= 0) {
            throw new ArithmeticException(what + " of number zero or less");
        }
    }

    /** e^x to {@code digits} significant digits (plus the digits lost to squaring). */
    private static BigDecimal expWork(BigDecimal x, int digits) {
        // halve x k times until |x| < 1, then square the series' result k times
        int k = 0;
        BigDecimal y = x;
        while (y.abs().compareTo(BigDecimal.ONE) >= 0) {
            y = y.divide(BigDecimal.TWO);
            k++;
            if (k > 4000) {
                throw new ArithmeticException("Overflow");
            }
        }
        MathContext mc = new MathContext(digits + k / 3 + 5, RoundingMode.HALF_EVEN);
        BigDecimal sum = BigDecimal.ONE;
        BigDecimal term = BigDecimal.ONE;
        BigDecimal eps = BigDecimal.ONE.movePointLeft(mc.getPrecision() + 2);
        for (int n = 1; n < 10_000; n++) {
            term = term.multiply(y, mc).divide(BigDecimal.valueOf(n), mc);
            sum = sum.add(term, mc);
            if (term.abs().compareTo(eps) < 0) {
                break;
            }
        }
        for (int i = 0; i < k; i++) {
            sum = sum.multiply(sum, mc);
        }
        return sum;
    }

    /** ln(x) for x > 0: ln(m) + e·ln(10) with x = m·10^e and m in [0.1, 1). */
    private static BigDecimal ln(BigDecimal x, int digits) {
        MathContext mc = new MathContext(digits + 5, RoundingMode.HALF_EVEN);
        int e = x.precision() - x.scale();
        BigDecimal m = x.movePointLeft(e);
        BigDecimal result = lnNear(m, mc);
        if (e != 0) {
            result = result.add(lnNear(BigDecimal.TEN, mc).multiply(BigDecimal.valueOf(e), mc), mc);
        }
        return result;
    }

    /** ln(m) for m of moderate size: Halley's iteration y += 2(m - e^y)/(m + e^y) from the double estimate. */
    private static BigDecimal lnNear(BigDecimal m, MathContext mc) {
        BigDecimal y = new BigDecimal(Math.log(m.doubleValue()));
        for (int i = 0; i < 4; i++) {
            BigDecimal ey = expWork(y, mc.getPrecision());
            BigDecimal step = m.subtract(ey, mc).multiply(BigDecimal.TWO, mc).divide(m.add(ey, mc), mc);
            y = y.add(step, mc);
            if (step.signum() == 0) {
                break;
            }
        }
        return y;
    }
}
