-- SPDX-License-Identifier: GPL-2.0-or-later
-- bthome_ref.lua: a reference BTHome dissector in Lua, for the benchmark only.
--
-- NOT the product (that is the C plugin in plugin/). It is what a user would write
-- otherwise: the same BTHome subset the benchmark captures carry (v2 plaintext: packet
-- id, battery, temperature, humidity, button, power, energy; encrypted adverts are only
-- marked, never decrypted), with the same field names under another protocol name,
-- bthome_lua.*, and the same Info column summary, so that bench/bench.py can time it
-- against the plugin on the same hook:
--   Wireshark 4.2+: the service-data table btcommon.eir_ad.entry.uuid ("fcd2");
--   Wireshark 4.0:  a postdissector reading btcommon's AD fields (4.0 has no table).
-- Load with: tshark -X lua_script:bench/lua/bthome_ref.lua ...

local p = Proto("bthome_lua", "BTHome (Lua reference)")

local button_words = { [0] = "none", [1] = "press", [2] = "double_press",
    [3] = "triple_press", [4] = "long_press", [5] = "long_double_press",
    [6] = "long_triple_press", [0x80] = "hold_press" }

local pf = {
    info = ProtoField.uint8("bthome_lua.info", "Device information", base.HEX),
    encrypted = ProtoField.bool("bthome_lua.encrypted", "Encrypted"),
    packet_id = ProtoField.uint8("bthome_lua.packet_id", "Packet ID", base.DEC),
    battery = ProtoField.uint8("bthome_lua.battery", "Battery", base.DEC),
    temperature = ProtoField.double("bthome_lua.temperature", "Temperature"),
    humidity = ProtoField.double("bthome_lua.humidity", "Humidity"),
    button = ProtoField.uint8("bthome_lua.button", "Button", base.DEC, button_words),
    power = ProtoField.double("bthome_lua.power", "Power"),
    energy = ProtoField.double("bthome_lua.energy", "Energy"),
}
p.fields = { pf.info, pf.encrypted, pf.packet_id, pf.battery, pf.temperature,
             pf.humidity, pf.button, pf.power, pf.energy }

-- id -> value length, signed, divisor (nil: integer), field, label, unit, decimals
local objects = {
    [0x00] = { 1, false, nil, pf.packet_id, "Packet ID", "", 0 },
    [0x01] = { 1, false, nil, pf.battery, "Battery", " %", 0 },
    [0x02] = { 2, true, 100, pf.temperature, "Temperature", " °C", 2 },
    [0x03] = { 2, false, 100, pf.humidity, "Humidity", " %", 2 },
    [0x0a] = { 3, false, 1000, pf.energy, "Energy", " kWh", 3 },
    [0x0b] = { 3, false, 100, pf.power, "Power", " W", 2 },
    [0x2e] = { 1, false, nil, pf.humidity, "Humidity", " %", 0 },
    [0x3a] = { 1, false, nil, pf.button, "Button", "", 0 },
    [0x45] = { 2, true, 10, pf.temperature, "Temperature", " °C", 1 },
}

-- Decodes BTHome service data (the bytes after the UUID); returns the Info summary.
local function decode(tvb, tree)
    local len = tvb:len()
    local t = tree:add(p, tvb())
    if len < 1 then
        t:append_text(" [empty]")
        return "[empty]"
    end
    local info = tvb(0, 1):uint()
    t:add(pf.info, tvb(0, 1))
    if info % 2 == 1 then
        t:add(pf.encrypted, tvb(0, 1), true)
        return "[encrypted]"
    end
    local parts = {}
    local pos = 1
    while pos < len do
        local id = tvb(pos, 1):uint()
        local o = objects[id]
        if not o or pos + 1 + o[1] > len then
            parts[#parts + 1] = string.format("[object 0x%02x]", id)
            break
        end
        local r = tvb(pos + 1, o[1])
        local raw = o[2] and r:le_int() or r:le_uint()
        local text
        if id == 0x3a then
            text = button_words[raw] or tostring(raw)
            t:add(o[4], r, raw, o[5] .. ": " .. text)
        elseif o[3] then
            local v = raw / o[3]
            text = string.format("%." .. o[7] .. "f", v) .. o[6]
            t:add(o[4], r, v, o[5] .. ": " .. text)
        else
            text = tostring(raw) .. o[6]
            t:add(o[4], r, raw, o[5] .. ": " .. text)
        end
        parts[#parts + 1] = o[5] .. " " .. text
        pos = pos + 1 + o[1]
    end
    return table.concat(parts, ", ")
end

local function show(pinfo, summary)
    pinfo.cols.protocol = "BTHome"
    pinfo.cols.info = summary
end

local uuid_table = DissectorTable.get("btcommon.eir_ad.entry.uuid")
if uuid_table then
    -- Wireshark 4.2+: btcommon hands over the service data of UUID fcd2.
    function p.dissector(tvb, pinfo, tree)
        show(pinfo, decode(tvb, tree))
        return tvb:len()
    end
    uuid_table:add("fcd2", p)
else
    -- Wireshark 4.0: find "len 16 d2 fc ..." among the AD structures btcommon dissected.
    local f_uuid16 = Field.new("btcommon.eir_ad.entry.uuid_16")
    local f_service_data = Field.new("btcommon.eir_ad.entry.service_data")
    function p.dissector(tvb, pinfo, tree)
        local data = { f_service_data() }
        if #data == 0 then return end
        local uuids = { f_uuid16() }
        for _, d in ipairs(data) do
            for _, u in ipairs(uuids) do
                if u.value == 0xfcd2 and u.offset + 2 == d.offset then
                    show(pinfo, decode(d.range:tvb(), tree))
                end
            end
        end
    end
    register_postdissector(p)
end
