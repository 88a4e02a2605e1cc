/** The part of ml-logistic-regression (no types of its own) that the judge's training uses. */
declare module 'ml-logistic-regression' {
  import type { Matrix } from 'ml-matrix';

  interface TwoClassClassifier {
    weights: Matrix;
  }

  export default class LogisticRegression {
    constructor(options?: { numSteps?: number; learningRate?: number });
    classifiers: TwoClassClassifier[];
    train(X: Matrix, Y: Matrix): void;
    predict(X: Matrix): number[];
  }
}
