// The service worker's scope (sw.js runs as a ServiceWorkerGlobalScope, whose `self` the
// webworker library types as any worker's): its events and what it calls, for tsc.

interface WorkerGlobalScopeEventMap {
  install: ExtendableEvent;
  activate: ExtendableEvent;
  fetch: FetchEvent;
  notificationclick: NotificationEvent;
  push: PushEvent;
}

interface WorkerGlobalScope {
  readonly clients: Clients;
  readonly registration: ServiceWorkerRegistration;
  skipWaiting(): Promise<void>;
}
