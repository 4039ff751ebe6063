-- Like create-order.lua, each request under a new Idempotency-Key (wrk ... -s this -- <run prefix>);
-- with the argument "replay", every request sends the same key and body: all but the first are replays.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function init(args)
  prefix = (args[1] or "run") .. "-" .. tostring(tid)
  replay = args[1] == "replay"
  counter = 0
end

wrk.method = "POST"
wrk.path = "/orders"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"customerName":"Bench Creator","currency":"EUR","items":[{"name":"Mug","quantity":1,"unitPrice":12.5,"requiresSignature":false}],"shippingAddress":{"street":"1 Main St","city":"Oslo","postalCode":"0150","country":"NO","isResidential":false}}'

function request()
  counter = counter + 1
  wrk.headers["Idempotency-Key"] = replay and "the-one-key" or (prefix .. "-" .. counter)
  return wrk.format()
end
