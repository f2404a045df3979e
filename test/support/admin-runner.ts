/** Runs the admin CLI in-process against a test stack's tables and returns what it printed, as one string. */
import { runAdmin } from '../../local/admin-cli';
import type { TestStack } from './test-stack';

export async function runAdminOn(stack: TestStack, argv: readonly string[]): Promise<string> {
  const lines: string[] = [];
  await runAdmin([...argv], stack.env, (line) => lines.push(line));
  return lines.join('\n');
}
