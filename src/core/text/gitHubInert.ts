/** U+200B ZERO WIDTH SPACE: invisible, and not a character GitHub's reference patterns allow where it is put. */
const BREAK = '\u200B';

/**
 * Text that came from an agent or a tool, made inert for GitHub (a pull request's title or body, a commit message):
 * it shows the same, but notifies no one and links or closes nothing. Each rule follows GitHub Docs:
 * - Mentions: `@user` and `@org/team` notify ("Basic writing and formatting syntax" › "Mentioning people and
 *   teams"); a break after `@` leaves no user name next to it.
 * - Issue and pull request references: `#26`, `GH-26`, `owner/repo#26` ("Autolinked references and URLs" › "Issues
 *   and pull requests"); a break after `#` / `GH-` leaves no number next to it. That also disarms a closing keyword
 *   in front of such a reference (`Closes #1`, `fixes: o/r#2`).
 * - Closing keywords: close, closes, closed, fix, fixes, fixed, resolve, resolves, resolved, in any case, optionally
 *   followed by a colon ("Linking a pull request to an issue" › "Linking a pull request to an issue using a
 *   keyword"); one followed by an issue URL gets a break after the keyword.
 * HTML (comments, `<img>` tracking images) is not handled here: it stays inert inside a fenced code block
 * (fencedBlock), where GitHub shows it as text.
 */
export function gitHubInert(text: string): string {
  return text
    .replace(/@(?=[A-Za-z0-9])/g, `@${BREAK}`)
    .replace(/#(?=\d)/g, `#${BREAK}`)
    .replace(/\b(GH-)(?=\d)/gi, `$1${BREAK}`)
    .replace(/\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?=:?\s+https?:\/\/)/gi, `$1${BREAK}`);
}
