export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One line of the delivery log. */
export interface Delivery {
  readonly id: number;
  readonly endpointId: number;
  readonly eventId: string;
  /** The event's place in the log: its body is read from there. */
  readonly eventPosition: number;
  readonly eventType: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly lastAttemptAt: number | null;
  readonly nextAttemptAt: number | null;
  readonly deliveredAt: number | null;
  readonly createdAt: number;
}

/** One attempt of a delivery, as the log keeps it. */
export interface DeliveryAttempt {
  readonly id: number;
  readonly deliveryId: number;
  /** 1 for the delivery's first attempt. */
  readonly attempt: number;
  readonly attemptedAt: number;
  readonly durationMs: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  /** The body sent; null while it is the delivery's own (rebuilt from its event) or once purged. */
  readonly requestBody: string | null;
  readonly responseExcerpt: string | null;
}
