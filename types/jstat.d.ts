// jstat ships no types and DefinitelyTyped has none; this declares the part mmapbench uses.
declare module 'jstat' {
  const jstat: {
    studentt: {
      /** The quantile of Student's t with `dof` degrees of freedom at probability `p`. */
      inv(p: number, dof: number): number;
      /** The probability that Student's t with `dof` degrees of freedom is at most `x`. */
      cdf(x: number, dof: number): number;
    };
    centralF: {
      /** The probability that F with (`df1`, `df2`) degrees of freedom is at most `x`. */
      cdf(x: number, df1: number, df2: number): number;
    };
    normal: {
      /** The probability that a normal with this mean and sd is at most `x`. */
      cdf(x: number, mean: number, sd: number): number;
    };
  };
  export default jstat;
}
