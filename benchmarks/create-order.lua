-- Every request creates an order (dated now, so it enters every list sorted by date, newest first).
wrk.method = "POST"
wrk.path = "/orders"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"customerName":"Bench Creator","currency":"EUR","items":[{"name":"Mug","quantity":1,"unitPrice":12.5,"requiresSignature":false}],"shippingAddress":{"street":"1 Main St","city":"Oslo","postalCode":"0150","country":"NO","isResidential":false}}'
