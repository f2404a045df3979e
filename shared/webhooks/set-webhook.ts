/**
 * Sets an account's webhook (PUT /v1/webhook).
 * Input: the account, the URL, whether to issue a new secret; the URL rules' test setting. Output: the webhook, and
 * its secret when this call issued one (the only time it is shown).
 *   1. Check the URL: https on 443, every address its host resolves to public (./deliver-webhook.ts).
 *   2. Without `rotateSecret`: point an existing webhook at the URL, keeping its secret; with none, create one with
 *      a new secret under a condition (two first calls racing: the loser changes the winner's URL instead, so every
 *      secret shown is the one stored).
 *   3. With `rotateSecret`: set URL and a new secret at once; the old secret signs nothing from then on.
 */
import type { WebhookStore } from '../ports';
import { checkWebhookTarget, type DeliveryOptions } from './deliver-webhook';
import { newWebhookSecret, type Webhook } from './webhook';

export interface SetWebhookInput {
  url: string;
  rotateSecret: boolean;
}

export async function setWebhook(
  store: WebhookStore,
  accountId: string,
  input: SetWebhookInput,
  options: { now: Date; urlRules?: Pick<DeliveryOptions, 'allowAddress'> },
): Promise<{ webhook: Webhook; secret?: string }> {
  await checkWebhookTarget(input.url, options.urlRules);
  const at = options.now.toISOString();
  const fresh = (): Webhook => ({
    accountId,
    url: input.url,
    secret: newWebhookSecret(),
    createdAt: at,
    updatedAt: at,
    secretIssuedAt: at,
  });
  if (input.rotateSecret) {
    const webhook = await store.replace(fresh());
    return { webhook, secret: webhook.secret };
  }
  for (;;) {
    const changed = await store.changeUrl(accountId, input.url, at);
    if (changed) return { webhook: changed };
    const created = fresh();
    if (await store.create(created)) return { webhook: created, secret: created.secret };
    // Another call created it meanwhile: change its URL (a delete in between sends us round again).
  }
}
