#pragma once
// The distributions the tests and intervals need, computed from scratch
// (Numerical Recipes' incomplete gamma and beta functions): chi-square,
// noncentral chi-square, Student's t and the binomial tail.
#include <cstdint>

namespace rulebook::analysis {

// Regularized upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a),
// by its series (x < a + 1) or continued fraction (Numerical Recipes, 6.2).
double regularized_gamma_q(double a, double x);

// Regularized incomplete beta function I_x(a, b) (Numerical Recipes, 6.4).
double regularized_beta(double x, double a, double b);

// P(X >= x) for X chi-square distributed with `df` degrees of freedom.
double chi_square_survival(double x, double df);

// P(X <= x) for X noncentral chi-square with `df` degrees of freedom and
// noncentrality `lambda`: the Poisson(lambda / 2) mixture of central ones.
double noncentral_chi_square_cdf(double x, double df, double lambda);

// P(|T| >= t) for T Student-t distributed with `df` degrees of freedom.
double student_t_two_sided(double t, double df);
// The t with P(|T| >= t) = 1 - level (level 0.95: the 97.5% quantile).
double student_t_critical(double df, double level = 0.95);

// P(X <= k) for X binomial(n, 1/2), in log space (exact for any n).
double binomial_half_cdf(int64_t k, int64_t n);

}  // namespace rulebook::analysis
