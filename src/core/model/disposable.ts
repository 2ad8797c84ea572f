/** What a registration or a subscription returns: `dispose()` undoes it. */
export interface Disposable {
  dispose(): void;
}
