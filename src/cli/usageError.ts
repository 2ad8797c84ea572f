/** Wrong use of the CLI: exit 2, the message without a stack trace (and the usage text unless `showUsage` is false). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}
