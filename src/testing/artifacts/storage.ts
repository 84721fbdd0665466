/**
 * The signed storage behind W&B's upload and download URLs (`/storage/{token}`), answering as
 * S3 does. A signed URL is a capability: only its token is checked, and a request that also
 * carries an Authorization header is refused, as S3 refuses two auth mechanisms.
 */
import { toBody } from "../responses.js";
import type { FakeRequest, ResponsePlan } from "../types.js";
import { storePart } from "./multipart.js";
import { type ArtifactStore, md5Base64 } from "./store.js";

/** S3's answer to a request with two auth mechanisms (the signature in the URL and a header). */
function storageError(status: number, code: string, message: string): ResponsePlan {
  return {
    kind: "respond",
    status,
    headers: { "content-type": "application/xml" },
    body: toBody(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    ),
  };
}

export function storage(method: "PUT" | "GET") {
  return ({
    req,
    state,
    params,
  }: {
    req: FakeRequest;
    state: { artifacts: ArtifactStore };
    params: { token: string };
  }): ResponsePlan => {
    if (req.headers.authorization !== undefined)
      return storageError(
        400,
        "InvalidArgument",
        "Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified",
      );
    const grant = state.artifacts.grant(params.token);
    if (grant === undefined || grant.method !== method)
      return storageError(403, "AccessDenied", "Request has expired or the signature does not match");
    if (method === "GET") {
      const object = state.artifacts.object(grant.key);
      if (object === undefined) return storageError(404, "NoSuchKey", "The specified key does not exist.");
      return {
        kind: "respond",
        status: 200,
        headers: { "content-type": "application/octet-stream", "content-length": String(object.bytes.byteLength) },
        body: toBody(object.bytes),
      };
    }
    const bytes = req.bytes ?? new TextEncoder().encode(req.body);
    const sentMd5 = req.headers["content-md5"];
    const actual = md5Base64(bytes);
    if (sentMd5 !== undefined && sentMd5 !== actual)
      return storageError(400, "BadDigest", "The Content-MD5 you specified did not match what we received.");
    if (grant.part !== undefined) {
      const part = storePart(state, grant.part, bytes);
      if ("code" in part) return storageError(part.code === "NoSuchUpload" ? 404 : 403, part.code, part.message);
      return { kind: "respond", status: 200, headers: { etag: part.etag }, body: toBody("") };
    }
    if (grant.md5 !== undefined && grant.md5 !== actual)
      return storageError(403, "SignatureDoesNotMatch", "The content does not match the MD5 the URL was signed for.");
    state.artifacts.store(grant.key, bytes, grant.birth ?? "");
    return { kind: "respond", status: 200, headers: { etag: `"${actual}"` }, body: toBody("") };
  };
}
