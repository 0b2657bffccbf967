"""One way out: every side effect sent to the outside (mail, web push, webhooks) is a row of a
``Delivery`` table first, sent by one pipeline (``portal.delivery.pipeline``)."""
