// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

/// @title SandboxToken
/// @notice A minimal ERC-20 for the swapintent sandbox (USDC/USDT/WETH-style test tokens).
/// Only the minter (the leg's deployer) can mint. When `wrapsNative` is set the token also wraps the
/// chain's native coin (`deposit`/`withdraw`, like WETH): one token lot is `nativeScale` wei of the engine's
/// native coin (1 for WETH; 10^12 for WTRX, whose 6-decimal lots sit on an engine whose native unit has 18).
/// Written for the sandbox only.
contract SandboxToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    address public immutable minter;
    bool public immutable wrapsNative;
    /// @notice Engine wei per token lot when wrapping the native coin (at least 1).
    uint256 public immutable nativeScale;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 amount);
    event Approval(address indexed owner, address indexed spender, uint256 amount);
    event Deposit(address indexed account, uint256 amount);
    event Withdrawal(address indexed account, uint256 amount);

    error NotMinter();
    error NotWrapper();
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);
    error NativeTransferFailed();
    error ZeroNativeScale();
    error NotWholeLots(uint256 value, uint256 nativeScale);

    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        address minter_,
        bool wrapsNative_,
        uint256 nativeScale_
    ) {
        if (nativeScale_ == 0) revert ZeroNativeScale();
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = minter_;
        wrapsNative = wrapsNative_;
        nativeScale = nativeScale_;
    }

    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert NotMinter();
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(from, msg.sender, allowed, amount);
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    /// @notice Wrap native coin (only for wrapping tokens such as WETH or WTRX): mints `msg.value / nativeScale`
    /// lots and refuses a value that is not a whole number of lots.
    function deposit() external payable {
        if (!wrapsNative) revert NotWrapper();
        if (msg.value % nativeScale != 0) revert NotWholeLots(msg.value, nativeScale);
        uint256 amount = msg.value / nativeScale;
        totalSupply += amount;
        balanceOf[msg.sender] += amount;
        emit Deposit(msg.sender, amount);
        emit Transfer(address(0), msg.sender, amount);
    }

    /// @notice Unwrap `amount` lots to `amount * nativeScale` wei of the native coin.
    function withdraw(uint256 amount) external {
        if (!wrapsNative) revert NotWrapper();
        uint256 balance = balanceOf[msg.sender];
        if (balance < amount) revert InsufficientBalance(msg.sender, balance, amount);
        balanceOf[msg.sender] = balance - amount;
        totalSupply -= amount;
        emit Withdrawal(msg.sender, amount);
        emit Transfer(msg.sender, address(0), amount);
        (bool ok,) = msg.sender.call{value: amount * nativeScale}("");
        if (!ok) revert NativeTransferFailed();
    }

    function _move(address from, address to, uint256 amount) private {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
