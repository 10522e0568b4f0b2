// The Tron address helpers the `.` and `./tron` entries export.
export {
  type FormatTronAddressErrorType,
  type FormatTronAddressParameters,
  type FormatTronAddressReturnType,
  formatTronAddress,
} from "../address/formatTronAddress.js";
export {
  type ParseTronAddressErrorType,
  type ParseTronAddressParameters,
  type ParseTronAddressReturnType,
  parseTronAddress,
} from "../address/parseTronAddress.js";
