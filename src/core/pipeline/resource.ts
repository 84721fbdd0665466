import type { HttpClient } from "./http-client.js";

/** Base of every namespace class: holds the shared request pipeline. */
export abstract class APIResource {
  protected readonly _http: HttpClient;

  constructor(http: HttpClient) {
    this._http = http;
  }
}
