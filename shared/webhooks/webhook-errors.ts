/** The webhook routes' own refusals: a call that needs a webhook, or a dead letter, the account does not have. */
import { clipped, ServiceError } from '../errors';

export class WebhookNotSetError extends ServiceError {
  readonly status = 404;
  readonly code = 'not_found';
  constructor() {
    super({
      en: 'This account has no webhook. Set one with PUT /v1/webhook first.',
      zh: '该账户尚未设置 webhook。请先调用 PUT /v1/webhook 设置。',
    });
  }
}

export class DeadLetterNotFoundError extends ServiceError {
  readonly status = 404;
  readonly code = 'not_found';
  constructor(eventId: string) {
    const id = clipped(eventId);
    super(
      {
        en: `This account has no dead letter ${id}. GET /v1/webhook/dead-letters lists them (kept 30 days).`,
        zh: `该账户没有死信 ${id}。请通过 GET /v1/webhook/dead-letters 查看（保留 30 天）。`,
      },
      { id },
    );
  }
}
